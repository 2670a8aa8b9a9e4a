// --plat-api-content-type (the controller manager's Generic.ClientConnection.contentType, the node
// agent's contentType): the media type a client-go client encodes request bodies in. plat's client
// speaks JSON only, so it takes the types client-go's clientset encodes in (its scheme's codecs:
// JSON, YAML and upstream's default, the protobuf type) and sends JSON for each. Any other type
// client-go would refuse on the first request with a body (runtime.NegotiateError: "no serializers
// registered for X"); plat refuses it at start-up, in client-go's words.
export const API_CONTENT_TYPES = ['application/vnd.platform.protobuf', 'application/json', 'application/yaml'] as const;

/** The problem with a content type, or undefined. Empty is fine: client-go's NewRESTClient reads it as JSON. */
export function apiContentTypeProblem(value: unknown): string | undefined {
  if (value === '' || (API_CONTENT_TYPES as readonly unknown[]).includes(value)) return undefined;
  return `no serializers registered for ${String(value)} (plat's client takes ${API_CONTENT_TYPES.slice(0, -1).join(', ')} or ${API_CONTENT_TYPES.at(-1)!} and sends JSON for each)`;
}
