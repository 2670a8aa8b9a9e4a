// The Accept headers of client-go's metadata client, JSON only: an object or a list reduced to its
// metadata (PartialObjectMetadata[List]), plain JSON from a server without that form.
export const METADATA_OBJECT_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
