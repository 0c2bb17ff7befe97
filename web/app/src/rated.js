// The create-room form's rated match (spec/ratings.md §2.1): as `koikoi host --rated [--ratings
// URL]`, the rating service is the one typed, else the relay's own (ws:// -> http://).
import { serviceUrl } from '../../src/api/match.js';
import { ratingsProblem } from '../../src/api/match.js';

/**
 * The terms' `rated` and `ratings` for the form's choice; throws an Error (shown under the form)
 * for a service the terms could not carry, before any room is opened.
 * @param {boolean} rated @param {string} typed the service field ("" for the relay's)
 * @param {string} relay the relay URL of the form @returns {{rated: boolean, ratings: string}}
 */
export function ratedTerms(rated, typed, relay) {
  if (!rated) return { rated: false, ratings: '' };
  let ratings;
  try {
    ratings = serviceUrl(typed.trim() || relay);
  } catch {
    throw new Error(`${typed.trim() || relay} is not a rating service (http:// or https://) or relay (ws://, wss://) URL`);
  }
  const problem = ratingsProblem(true, ratings);
  if (problem) throw new Error(problem);
  return { rated: true, ratings };
}
