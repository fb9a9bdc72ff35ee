import { runService } from '@qm/platform';
import { activityService } from './service';

void runService(activityService);
