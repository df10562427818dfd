import { askUserTool } from './ask-user';
import { completeTodoTool } from './complete-todo';
import { getSubagentOutputTool } from './get-subagent-output';
import { listTodosTool } from './list-todos';
import { presentPlanTool } from './present-plan';
import { spawnSubagentTool } from './spawn-subagent';
import { taskCompleteTool } from './task-complete';
import type { Tool } from './tool';
import { updateTodoTool } from './update-todo';
import { writeTodosTool } from './write-todos';

/**
 * The harness's own tools: completion, todos, asking the user, subagents and plan review.
 * The registry builder registers these beside the workspace tools.
 */
export function harnessTools(): Tool[] {
  return [
    taskCompleteTool,
    writeTodosTool,
    updateTodoTool,
    completeTodoTool,
    listTodosTool,
    askUserTool,
    spawnSubagentTool,
    getSubagentOutputTool,
    presentPlanTool,
  ];
}
