export * from './endpoint';
export * from './messaging';
export * from './commands';
