// koikoi-p2p/rules: the Koi-Koi rules engine (spec/rules.md), pure and synchronous: cards, rule
// profiles and presets, scoring, a round and a match. It needs no libsodium.
export * from '../rules/index.js';
export * from '../rules/cards.js';
