// The operator's "plant added" webhook (infra/operatorWebhook.yml) is part of a stage deployed with
// a receiver only (param webhookUrl or WEBHOOK_URL): without one, its functions, queues and alarms
// are not in the template, and callers' own endpoints work as before.
const enabled = async (resolveVariable) =>
  Boolean(await resolveVariable('param:webhookUrl, env:WEBHOOK_URL, ""'));

module.exports = {
  functions: async ({ resolveVariable }) =>
    (await enabled(resolveVariable))
      ? resolveVariable('file(infra/operatorWebhook.yml):functions')
      : {},
  resources: async ({ resolveVariable }) =>
    (await enabled(resolveVariable))
      ? resolveVariable('file(infra/operatorWebhook.yml):resources')
      : {},
};
