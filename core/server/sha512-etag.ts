// The ETag value upstream computes for its discovery documents: the upper-case hex SHA-512 of the
// bytes served (kube-openapi handler3's computeETag, aggregated discovery's calculateETag).
import { createHash } from 'node:crypto';

export const sha512Etag = (body: Buffer | string): string => createHash('sha512').update(body).digest('hex').toUpperCase();
