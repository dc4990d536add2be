// The DOM library (for the browser bundle) declares CacheStorage without the Workers runtime's
// `caches.default`, and its declaration wins the merge; this puts the Workers one back.
interface CacheStorage {
  readonly default: Cache;
}
