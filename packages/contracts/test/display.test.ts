/** The display helpers: what they write, and that loading them costs a page no Intl formatter. */
type Display = typeof import('../src/api/display');

const { DateTimeFormat, NumberFormat } = Intl;
afterEach(() => jest.restoreAllMocks());

/** The module loaded afresh with Intl's constructors counted; `made` counts every formatter built. */
function loadCounting(): { display: Display; made: () => number } {
  let made = 0;
  jest.spyOn(Intl, 'DateTimeFormat').mockImplementation((...args) => {
    made++;
    return new DateTimeFormat(...args);
  });
  jest.spyOn(Intl, 'NumberFormat').mockImplementation((...args) => {
    made++;
    return new NumberFormat(...args);
  });
  let display!: Display;
  jest.isolateModules(() => {
    display = jest.requireActual<Display>('../src/api/display');
  });
  return { display, made: () => made };
}

describe('display helpers', () => {
  it('build no formatter as the module loads, and each one once, when first used', () => {
    const { display, made } = loadCounting();
    expect(made()).toBe(0);
    const at = '2026-11-23T08:35:00Z';
    expect(display.longDateTime(at)).toBe('23 November 2026 at 2:05 pm IST');
    expect(display.exactDate(at)).toBe('23 Nov 2026, 2:05 pm IST');
    expect(display.timeOfDay(at)).toBe('2:05 pm IST');
    expect(display.formatINR('100000')).toBe('₹1,00,000.00');
    expect(display.formatRupees(99999999.99)).toBe('₹9,99,99,999.99');
    expect(made()).toBe(5);
    display.longDateTime(at);
    display.exactDate(at);
    display.timeOfDay(at);
    display.formatINR(1);
    display.formatRupees(1);
    expect(made()).toBe(5);
  });

  it('write every time in India Standard Time, whatever the clock of the machine', () => {
    const { display } = loadCounting();
    // 23:59 UTC is the next morning in India.
    expect(display.longDateTime('2026-12-31T23:59:00Z')).toBe('1 January 2027 at 5:29 am IST');
  });
});
