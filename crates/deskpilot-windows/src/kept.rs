//! The elements a UI Automation worker keeps, by `RuntimeId`, for later calls on them: at
//! most 50,000, the least recently used going first, one at a time. Clearing them all at
//! once past the bound made every later resolve a search of the whole tree (review A7).
//! Plain Rust over the `lru` crate, so its rule is tested here.

use std::num::NonZeroUsize;

use lru::LruCache;

use crate::raw::RuntimeKey;

/// Kept elements (`V`: a COM element on Windows).
pub struct Kept<V> {
    elements: LruCache<RuntimeKey, V>,
}

impl<V> Kept<V> {
    pub fn new(bound: NonZeroUsize) -> Self {
        Kept {
            elements: LruCache::new(bound),
        }
    }

    /// Keeps `element`; past the bound the least recently used goes.
    pub fn put(&mut self, key: RuntimeKey, element: V) {
        self.elements.put(key, element);
    }

    /// The element kept under `key`, now the most recently used.
    pub fn get(&mut self, key: &RuntimeKey) -> Option<&V> {
        self.elements.get(key)
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::Kept;
    use crate::raw::RuntimeKey;

    /// Past the bound one element goes, the least recently used: one resolved since stays,
    /// and so do all the others.
    #[test]
    fn past_the_bound_the_least_recently_used_goes_alone() {
        let key = |n| RuntimeKey(vec![42, n]);
        let mut kept = Kept::new(NonZeroUsize::new(3).unwrap());
        for n in 0..3 {
            kept.put(key(n), n);
        }
        assert_eq!(kept.get(&key(0)), Some(&0));
        kept.put(key(3), 3);
        assert_eq!(kept.get(&key(1)), None, "the least recently used went");
        for n in [0, 2, 3] {
            assert_eq!(kept.get(&key(n)), Some(&n), "the others stay");
        }
    }
}
