// JSON schemas of TokenReview and SelfSubjectReview (authentication.platform/v1).
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const strings: JsonSchema = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' };

export const userInfoSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.UserInfo',
  description: 'UserInfo holds the information about the user needed to implement the user.Info interface.',
  properties: {
    username: { type: 'string', description: 'The name that uniquely identifies this user among all active users.' },
    uid: { type: 'string', description: 'A unique value that identifies this user across time.' },
    groups: { ...strings, description: 'The names of groups this user is a part of.' },
    extra: { type: 'object', additionalProperties: { ...strings, 'x-go-type': 'v1.ExtraValue' }, description: 'Any additional information provided by the authenticator.' },
  },
};

export const tokenReviewSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.TokenReview',
  required: ['spec'],
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object',
      'x-go-type': 'v1.TokenReviewSpec',
      description: 'Spec holds information about the request being evaluated',
      properties: {
        token: { type: 'string', description: 'Token is the opaque bearer token.' },
        audiences: { ...strings, description: 'Audiences is a list of the identifiers that the resource server presented with the token identifies as.' },
      },
    },
    status: {
      type: 'object',
      'x-go-type': 'v1.TokenReviewStatus',
      description: 'Status is filled in by the server and indicates whether the request can be authenticated.',
      properties: {
        authenticated: { type: 'boolean', description: 'Authenticated indicates that the token was associated with a known user.' },
        user: userInfoSchema,
        audiences: { ...strings, description: 'Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token.' },
        error: { type: 'string', description: "Error indicates that the token couldn't be checked" },
      },
    },
  },
};

export const selfSubjectReviewSchema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.SelfSubjectReview',
  properties: {
    ...typeMetaProperties,
    status: {
      type: 'object',
      'x-go-type': 'v1.SelfSubjectReviewStatus',
      description: 'Status is filled in by the server with the user attributes.',
      properties: { userInfo: userInfoSchema },
    },
  },
};
