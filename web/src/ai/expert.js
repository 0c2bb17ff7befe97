// The learned player (`expert`), a port of koikoi_p2p/ai/expert.py: the master's search
// (master.js) with the playouts cut after `horizon` turns valued by the learned value network
// (value.js) instead of the piles' prospects. The network reads each leaf as the searching seat
// would see it (features.js `compactOfState`), so the sampled hidden cards never reach it.

import { MasterPlayer, Prospects } from './master.js';
import { compactOfState } from './features.js';
import { shipped } from './value.js';

/** Turns a playout runs before the network values it (expert.py EXPERT_HORIZON). */
export const EXPERT_HORIZON = 4;

/** A cut playout's worth to `me`: the network's expected round points from `me`'s view. */
export class LearnedLeaf extends Prospects {
  /**
   * @param {import('../rules/profile.js').Profile} profile
   * @param {import('./value.js').ValueNet} net
   */
  constructor(profile, net) {
    super(profile);
    this.net = net;
  }

  /**
   * @param {import('../rules/round.js').RoundState} state
   * @param {0 | 1} me
   */
  difference(state, me) {
    return this.net.value(compactOfState(state, me));
  }
}

/** The master's search valuing its cut playouts with the learned network. */
export class ExpertPlayer extends MasterPlayer {
  /**
   * @param {string | number} seed
   * @param {ConstructorParameters<typeof MasterPlayer>[1] & {net?: import('./value.js').ValueNet}} [opts]
   */
  constructor(seed, opts = {}) {
    const { net, ...rest } = opts;
    super(seed, { horizon: EXPERT_HORIZON, ...rest });
    this.name = 'expert';
    this.net = net ?? shipped();
    this.prospects = new LearnedLeaf(this.profile, this.net);
  }

  /** @param {import('../rules/profile.js').Profile} profile */
  useProfile(profile) {
    super.useProfile(profile);
    // The base class makes plain Prospects for a new profile; the network replaces them.
    if (!(this.prospects instanceof LearnedLeaf)) this.prospects = new LearnedLeaf(this.profile, this.net);
  }
}
