export * from './trace-context';
export * from './span-export';
