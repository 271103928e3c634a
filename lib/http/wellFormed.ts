// The rule every string of every request body keeps (API.md, strings): well-formed Unicode, as
// I-JSON requires, so that what is stored is sent on as it was sent.
import * as z from 'zod/mini';

/** The check of a body's string `field`: an unpaired surrogate is a 400 naming it. */
export const wellFormed = (field: string) =>
  z.refine<string>(
    (value) => value.isWellFormed(),
    `${field} must be well-formed Unicode (no unpaired surrogates)`,
  );
