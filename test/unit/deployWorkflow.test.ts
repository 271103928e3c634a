// The deploy workflow (.github/workflows/deploy.yml) as GitHub reads it: which runs share a
// concurrency group (GitHub's rule: one running, one pending, a newer pending one replacing the
// older), and what a checkout leaves behind for the steps after it.
import { describe, expect, it } from 'vitest';
import { yamlOf } from '../../infra/local/paths.ts';

const workflow = yamlOf('.github', 'workflows', 'deploy.yml');

/** `text` with each `${{ a.b || 'c' }}` evaluated in `context`, as GitHub's expressions do. */
const evaluate = (text: string, context: Record<string, Record<string, string>>) =>
  text.replace(/\$\{\{(.+?)\}\}/g, (_, expression: string) => {
    for (const operand of expression.split('||').map((part) => part.trim())) {
      const value = operand.startsWith("'")
        ? operand.slice(1, -1)
        : operand
            .split('.')
            .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], context);
      if (value) return String(value);
    }
    return '';
  });

const groupOf = (ref: string, stage?: string) =>
  evaluate(workflow.concurrency.group, { github: { ref }, inputs: stage ? { stage } : {} });

describe('the deploy workflow', () => {
  it('never lets a run from another branch replace or cancel a main deploy of the stage', () => {
    const mainPush = groupOf('refs/heads/main');
    expect(groupOf('refs/heads/main', 'dev')).toBe(mainPush);
    expect(groupOf('refs/heads/try-this', 'dev')).not.toBe(mainPush);
    expect(groupOf('refs/heads/main', 'prod')).not.toBe(mainPush);
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    // and such a run deploys nothing (the deploy role trusts main only, too)
    expect(workflow.jobs.deploy.if).toBe("github.ref == 'refs/heads/main'");
  });

  it("leaves no checkout's token in .git/config, and no step needs one", () => {
    for (const job of Object.values<{ steps: { uses?: string; with?: object; run?: string }[] }>(
      workflow.jobs,
    )) {
      const checkouts = job.steps.filter((step) => step.uses?.startsWith('actions/checkout@'));
      expect(checkouts).not.toHaveLength(0);
      for (const step of checkouts)
        expect(step.with).toMatchObject({ 'persist-credentials': false });
      for (const step of job.steps) expect(step.run ?? '').not.toMatch(/\bgit\b/);
    }
  });

  it("never lets npx fetch a package the install did not bring, with the role's credentials", () => {
    const runs = workflow.jobs.deploy.steps
      .map((step: { run?: string }) => step.run ?? '')
      .join('\n');
    expect(runs).toContain('npx --no sls deploy');
    // every npx command, a comment's word aside
    expect(runs.match(/^(?!\s*#).*\bnpx (?!--no )/gm)).toBeNull();
  });
});
