// AlarmActions and OKActions of every alarm (infra/alarms.yml, infra/webhooks.yml): the SNS topic
// given as the alarmTopicArn param, else none (the alarms still show in CloudWatch). Decided when
// the stage is packaged, so the template never holds an empty action for CloudFormation to refuse.
module.exports = async ({ resolveVariable }) => {
  const topic = await resolveVariable('param:alarmTopicArn');
  return topic ? [topic] : [];
};
