// A hand-written CloudFormation template of the repository (infra/deploy-role.yml, ...), its YAML
// short forms read as their JSON long forms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type YAMLSeq } from 'yaml';
import { repoRoot } from '../../infra/local/paths.ts';

// CloudFormation's YAML short forms, as their JSON long forms (!GetAtt Id.Attribute as a list)
const customTags = [
  'Ref',
  'Condition',
  ...['And', 'Base64', 'Equals', 'FindInMap', 'GetAZs', 'GetAtt', 'If', 'ImportValue', 'Join'],
  ...['Not', 'Or', 'Select', 'Split', 'Sub'],
].flatMap((name) => {
  const key = name === 'Ref' || name === 'Condition' ? name : `Fn::${name}`;
  return [
    {
      tag: `!${name}`,
      resolve: (value: string) => ({
        [key]: name === 'GetAtt' ? value.split(/\.(.*)/).slice(0, 2) : value,
      }),
    },
    {
      tag: `!${name}`,
      collection: 'seq' as const,
      resolve: (seq: YAMLSeq) => ({ [key]: seq.toJSON() }),
    },
  ];
});
export const cloudFormationYaml = <Template>(file: string) =>
  parse(readFileSync(join(repoRoot, file), 'utf8'), { customTags }) as Template;
