// Vite's `?url` imports (the address of an asset copied into the build), for
// the Havok WASM of babylon-v2.ts.
declare module '*.wasm?url' {
  const url: string;
  export default url;
}
