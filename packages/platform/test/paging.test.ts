import { GrpcStatus, validPaging } from '../src';

describe('validPaging: the one page check of every service list call', () => {
  it('takes 0 or nothing as the first page of the default size', () => {
    expect(validPaging({}, 100)).toEqual({ page: 1, pageSize: 20 });
    expect(validPaging({ page: 0, pageSize: 0 }, 50, 10)).toEqual({ page: 1, pageSize: 10 });
    expect(validPaging({ page: 3, pageSize: 50 }, 50)).toEqual({ page: 3, pageSize: 50 });
  });

  it.each([
    [{ page: -1 }, 'Page must be at least 1'],
    [{ page: 1.5 }, 'Page must be at least 1'],
    [{ page: 1_000_001 }, 'Page must be at most 1,000,000'],
    [{ pageSize: 101 }, 'Page size must be between 1 and 100'],
    [{ pageSize: -3 }, 'Page size must be between 1 and 100'],
  ])('refuses %j: %s', (req, message) => {
    expect(() => validPaging(req, 100)).toThrow(
      expect.objectContaining({ code: GrpcStatus.INVALID_ARGUMENT, message }),
    );
  });
});
