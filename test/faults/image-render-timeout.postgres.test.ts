import { describeImageRenderTimeout } from './image-render-timeout.suite';

describeImageRenderTimeout('postgres');
