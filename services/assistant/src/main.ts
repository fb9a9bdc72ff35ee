import { runService } from '@qm/platform';
import { assistantService } from './service';

void runService(assistantService);
