export { buildOpenApiDocument, DOCUMENTED_ROUTES, errorCodesOf, openApiPath } from './document';
export { joiToJsonSchema, type JsonSchema } from './joi-to-json-schema';
export { GATEWAY_ROUTES, OPERATIONS, type OperationSpec } from './operations';
