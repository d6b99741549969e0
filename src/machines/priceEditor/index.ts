export * from './priceEditor.machine';
export * from './priceEditor.selectors';
