// pngjs ships no type declarations; the tests use PNG.sync.read only.
declare module 'pngjs';
