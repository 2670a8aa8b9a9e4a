// --plat-api-content-type (the controller manager's Generic.ClientConnection.contentType, the node
// agent's contentType): the media type a client-go client encodes request bodies in. plat's client
// speaks JSON only, so it takes JSON and upstream's default, the protobuf type (which asks for
// protobuf where the server offers it, JSON otherwise), and sends JSON for both. Any other type
// client-go would refuse on the first request with a body (runtime.NegotiateError: "no serializers
// registered for X"); plat refuses it at start-up, in client-go's words.
export const API_CONTENT_TYPES = ['application/vnd.platform.protobuf', 'application/json'] as const;

/** The problem with a content type, or undefined. Empty is fine: client-go's NewRESTClient reads it as JSON. */
export function apiContentTypeProblem(value: unknown): string | undefined {
  if (value === '' || (API_CONTENT_TYPES as readonly unknown[]).includes(value)) return undefined;
  return `no serializers registered for ${String(value)} (plat's client takes ${API_CONTENT_TYPES.join(' or ')} and sends JSON for both)`;
}
