// The operator's "plant added" webhook (infra/operatorWebhook.yml) is part of a stage deployed with
// a receiver only (param webhookUrl or WEBHOOK_URL): without one, its functions, queues and alarms
// are not in the template, and callers' own endpoints work as before.
const part =
  (key) =>
  async ({ resolveVariable }) =>
    (await resolveVariable('param:webhookUrl, env:WEBHOOK_URL, ""'))
      ? resolveVariable(`file(infra/operatorWebhook.yml):${key}`)
      : {};

module.exports = { functions: part('functions'), resources: part('resources') };
