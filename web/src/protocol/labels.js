// Version-bound labels (spec/protocol.md §4.2): LABEL = "koikoi-p2p/<version> " (with the space),
// PROTOCOL_NAME = "koikoi-p2p/session/<version>".
import { utf8 } from '../bytes.js';

/** @param {number} version */
export function label(version) {
  return utf8(`koikoi-p2p/${version} `);
}

/** @param {number} version */
export function protocolName(version) {
  return utf8(`koikoi-p2p/session/${version}`);
}
