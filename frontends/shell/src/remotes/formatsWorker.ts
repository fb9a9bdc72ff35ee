// A worker that formats a price and the product's dates once, then ends: the locale data this loads is
// the browser's, shared with the page, whose first price then costs its main thread almost nothing
// (warmFormats.ts).
import { warmDisplayFormats } from '@qm/contracts/rules';

warmDisplayFormats();
close();
