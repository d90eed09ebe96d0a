import { describe, expect, it } from 'vitest';
import { generationText, isTerminal, projectTask, resourceIdOf, type Task } from '../../../src/lib/publish/tasks.ts';

const running: Task = {
  handle: '0b8f5a52-6a4f-4c39-9d5e-0d4b7c0f3a11',
  organizationId: 'org_1',
  tool: 'garments.publish',
  status: 'running',
  stage: 'building site',
  progress: 0.5,
  error: '',
  resourceId: 'tee/svc',
  pageUrl: '',
  supersededBy: null,
  callbackUrl: null,
  recordText: '{}',
  resultJson: null,
  createdAt: 0,
};

describe('projectTask', () => {
  it('gives the get_generation fields in wire order and naming', () => {
    expect(JSON.stringify(projectTask(running))).toBe(
      '{"handle":"0b8f5a52-6a4f-4c39-9d5e-0d4b7c0f3a11","resource_id":"tee/svc","status":"running","done":false,"progress":0.5,"stage":"building site","page_url":"","error":"","problems":[],"superseded_by":null}',
    );
  });

  it('is done only at complete, failed and superseded', () => {
    expect(projectTask({ ...running, status: 'queued' }).done).toBe(false);
    expect(projectTask({ ...running, status: 'complete' }).done).toBe(true);
    expect(projectTask({ ...running, status: 'failed' }).done).toBe(true);
    expect(projectTask({ ...running, status: 'superseded', supersededBy: 'h2' })).toMatchObject({ done: true, superseded_by: 'h2' });
  });

  it('lists every problem of a refused record with its pointer', () => {
    const problems = Array.from({ length: 150 }, (_, index) => ({ pointer: `/data/colors/${index}/id`, message: 'must match pattern' }));
    expect(projectTask({ ...running, status: 'failed', problems }).problems).toHaveLength(150);
  });

  it('gives an empty error unless the task failed', () => {
    expect(projectTask({ ...running, status: 'complete', error: 'left over' }).error).toBe('');
    expect(projectTask({ ...running, status: 'failed', error: 'record: /slug: bad' }).error).toBe('record: /slug: bad');
  });
});

describe('generationText', () => {
  it('serves the stored text of an ended task unchanged', () => {
    const stored = '{"handle":"h","resource_id":"","status":"failed","done":true,"progress":1,"stage":"failed","page_url":"","error":"x"}';
    expect(generationText({ ...running, status: 'failed', resultJson: stored })).toBe(stored);
  });

  it('projects an unfinished task from its current state', () => {
    expect(JSON.parse(generationText(running))).toMatchObject({ status: 'running', stage: 'building site', done: false });
  });
});

describe('isTerminal', () => {
  it('is true for complete and failed only', () => {
    expect(['queued', 'running', 'complete', 'failed'].map((status) => isTerminal(status as Task['status']))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});

describe('resourceIdOf', () => {
  it('joins slug and projection', () => {
    expect(resourceIdOf('tee', 'tech')).toBe('tee/tech');
  });
});
