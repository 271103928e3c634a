// Every alarm's AlarmActions and OKActions: the param alarmTopicArn's SNS topic, else none (never an
// empty action, which CloudFormation refuses).
module.exports = async ({ resolveVariable }) => {
  const topic = await resolveVariable('param:alarmTopicArn');
  return topic ? [topic] : [];
};
