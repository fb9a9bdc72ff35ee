import { runService } from '@qm/platform';
import { catalogService } from './service';

void runService(catalogService);
