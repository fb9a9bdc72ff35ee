import { runService } from '@qm/platform';
import { identityService } from './service';

void runService(identityService);
