import { describeAiAssistant } from './ai-assistant.suite';

describeAiAssistant('postgres');
