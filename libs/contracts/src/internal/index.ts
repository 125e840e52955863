export * from './endpoint';
export * from './messaging';
export * from './commands';
export * from './campaign';
export * from './gateway';
