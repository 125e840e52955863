export * from './rate-card';
export * from './rate-card-file';
