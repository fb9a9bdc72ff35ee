import { runService } from '@qm/platform';
import { walletService } from './service';

void runService(walletService);
