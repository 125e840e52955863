export * from './error-codes';
export * from './envelope';
export * from './headers';
export * from './routes';
export * from './schemas/common';
export * from './schemas/admin';
export * from './schemas/health';
