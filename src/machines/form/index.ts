export * from './form.machine';
