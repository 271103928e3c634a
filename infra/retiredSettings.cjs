// Stops a deploy (and npm start) still setting AUTH_REQUIRED_SCOPE, no longer read: it would quietly
// lose its scope check. Resolved by serverless.yml (custom).
module.exports = async ({ resolveVariable }) => {
  const requiredScope = await resolveVariable(
    'param:authRequiredScope, env:AUTH_REQUIRED_SCOPE, ""',
  );
  if (requiredScope) {
    throw new Error(
      'AUTH_REQUIRED_SCOPE (param authRequiredScope) is no longer read: set AUTH_WRITE_SCOPE (authWriteScope) for POST, PUT, PATCH and DELETE, and AUTH_READ_SCOPE (authReadScope) for GET, then unset it',
    );
  }
  return 'none';
};
