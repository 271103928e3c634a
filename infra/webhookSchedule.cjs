// WEBHOOK_RETRY_SCHEDULE (param webhookRetrySchedule), checked by the functions' own rule
// (lib/config/webhook.ts) when packaging: a schedule they would refuse stops the deploy instead.
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
