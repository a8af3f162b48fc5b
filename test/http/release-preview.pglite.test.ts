import { describeReleasePreview } from './release-preview.suite';

describeReleasePreview('pglite');
