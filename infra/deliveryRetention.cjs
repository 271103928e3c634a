// How long both delivery lanes keep a message (ENDPOINT_DELIVERY_RETENTION_SECONDS; 14 days, SQS's
// most, unless set), checked when packaging: a delivery that has waited half of it is given up as
// an attempt, so a retry must come due well before then (twice the longest step of the schedule).
const read = async ({ resolveVariable }) => {
  const text = await resolveVariable('env:ENDPOINT_DELIVERY_RETENTION_SECONDS, "1209600"');
  const schedule = await resolveVariable(
    'param:webhookRetrySchedule, env:WEBHOOK_RETRY_SCHEDULE, ""',
  );
  const { retrySchedule, DEFAULT_RETRY_SCHEDULE } = await import('#lib/config/webhook.ts');
  const longest = Math.max(...(retrySchedule(schedule || DEFAULT_RETRY_SCHEDULE) ?? [0])) / 1000;
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds > 1_209_600 || seconds <= 2 * longest) {
    throw new Error(
      `ENDPOINT_DELIVERY_RETENTION_SECONDS must be whole seconds, at most 1209600 (14 days, SQS's most) and more than twice the schedule's longest step (${longest} s), got "${text}"`,
    );
  }
  return seconds;
};

module.exports = {
  seconds: read,
  // the slow lane's oldest message past three quarters of it: its consumer has stopped (no caller's
  // backlog gets there, each delivery given up at half)
  stalledSeconds: async (context) => Math.round((await read(context)) * 0.75),
};
