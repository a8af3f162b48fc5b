import { describeAiAssistant } from './ai-assistant.suite';

describeAiAssistant('pglite');
