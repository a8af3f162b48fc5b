import { actionExecutionDecider } from '../src/domain/action-execution/decider';
import { actionExecutionEvent } from '../src/domain/action-execution/events';
import { apiKeyDecider } from '../src/domain/api-key/decider';
import { apiKeyEvent } from '../src/domain/api-key/events';
import { appDecider } from '../src/domain/app/decider';
import { appEvent } from '../src/domain/app/events';
import { contentTypeDecider } from '../src/domain/content-type/decider';
import { contentTypeEvent } from '../src/domain/content-type/events';
import { localesDecider } from '../src/domain/locale/decider';
import { localeEvent } from '../src/domain/locale/events';
import { workspaceDecider } from '../src/domain/workspace/decider';
import { workspaceEvent } from '../src/domain/workspace/events';

export const workspaceAggregate = { decider: workspaceDecider, parse: workspaceEvent.parse };
export const apiKeyAggregate = { decider: apiKeyDecider, parse: apiKeyEvent.parse };
export const appAggregate = { decider: appDecider, parse: appEvent.parse };
export const contentTypeAggregate = { decider: contentTypeDecider, parse: contentTypeEvent.parse };
export const localesAggregate = { decider: localesDecider, parse: localeEvent.parse };
export const actionExecutionAggregate = { decider: actionExecutionDecider, parse: actionExecutionEvent.parse };
