// The webhook functions' WEBHOOK_RETRY_SCHEDULE (param webhookRetrySchedule), checked when the
// stage is packaged: a schedule the functions would refuse at start stops the deploy instead, naming
// the setting, so that no stage runs with one. The rule is the functions' own (lib/config/webhook.ts).
// Resolved by serverless.yml (custom.environment.webhook and endpointDelivery).
module.exports = async ({ resolveVariable }) => {
  const schedule = await resolveVariable(
    'param:webhookRetrySchedule, env:WEBHOOK_RETRY_SCHEDULE, ""',
  );
  if (!schedule) return '';
  const { retrySchedule, SCHEDULE_RULE } = await import('#lib/config/webhook.ts');
  if (!retrySchedule(schedule)) {
    throw new Error(
      `WEBHOOK_RETRY_SCHEDULE (param webhookRetrySchedule) ${SCHEDULE_RULE}, got "${schedule}"`,
    );
  }
  return schedule;
};
