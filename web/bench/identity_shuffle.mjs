// node --import ./web/bench/identity_shuffle.mjs ...: a module hook for the differential bench
// only. It loads web/src/mentalpoker/shuffle.js with the permutation of every shuffle replaced by
// the identity (the re-randomisation and the proof stay real), so that in a match against a
// Python seat that shuffles a chosen order, that order is the deck (a forced deal). The shuffle
// argument proves any permutation, the identity included: both auditors accept such a match.
import { register } from 'node:module';

register('./identity_shuffle_hooks.mjs', import.meta.url);
