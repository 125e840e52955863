export * from './service-metrics';
