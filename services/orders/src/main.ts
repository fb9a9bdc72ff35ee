import { runService } from '@qm/platform';
import { ordersService } from './service';

void runService(ordersService);
