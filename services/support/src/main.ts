import { runService } from '@qm/platform';
import { supportService } from './service';

void runService(supportService);
