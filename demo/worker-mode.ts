export function runWorkerMode(): Promise<void> { return Promise.resolve(); }
