// Pure rules shared by the services and the dashboard (which bundles this folder from source): no runtime imports.
export * from './flow-graph';
export * from './template-definition';
