// What every route of the plants API shares.

/** The protection space every bearer challenge names: `WWW-Authenticate: Bearer realm="plants"`. */
export const REALM = 'plants';
