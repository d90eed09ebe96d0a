import { describe, expect, it } from 'vitest';
import type { KeptResult } from '../../../../src/lib/search/browser/kept-results.ts';
import {
  type Clock,
  filterChips,
  filterGroups,
  filterValuesRead,
  type FoundSearch,
  garmentsShown,
  isLatest,
  openedSearchBox,
  resultShown,
  sameFound,
  searchAddress,
  searchAsked,
  searchBegun,
  type SearchBoxState,
  searchFailed,
  searchFound,
  type SearchMode,
  shownCounts,
  summaryShown,
  TYPING_DELAY_MS,
  TYPING_RUN_MS,
} from '../../../../src/lib/search/browser/search-box-state.ts';
import type { PagefindResultData } from '../../../../src/lib/search/query/pagefind-api.ts';
import { searchMessages } from '../../../../src/lib/site/search-text.ts';
import { parseSearchState, type SearchState } from '../../../../src/lib/search/query/search-state.ts';

const messages = searchMessages();
const form = (query: string): SearchState => parseSearchState(new URLSearchParams(query));
const found = (count: number, more: Partial<FoundSearch> = {}): FoundSearch => ({
  count,
  filters: null,
  searched: '',
  corrected: false,
  dropped: [],
  suggestions: [],
  ...more,
});
const garment = (url: string): PagefindResultData => ({ url, excerpt: '', meta: {} });

/** A clock moved by hand: waits end only when the test moves it past them. */
function handClock(): Clock & { advance: (ms: number) => Promise<void> } {
  let now = 0;
  const waiting: { at: number; done: () => void }[] = [];
  return {
    now: () => now,
    wait: (ms) => new Promise((done) => waiting.push({ at: now + ms, done })),
    async advance(ms) {
      now += ms;
      for (const wait of waiting.splice(0)) {
        if (wait.at <= now) wait.done();
        else waiting.push(wait);
      }
      await Promise.resolve();
    },
  };
}

/**
 * A search asked for from the page at `address` (its query string) as search-client.ts asks: the
 * box's state after it, the history step, and whether it is still the latest once its delay is over.
 */
function ask(box: SearchBoxState, mode: SearchMode, query: string, current: string, clock: Clock) {
  const begun = searchBegun(box);
  const wanted = searchAddress({ pathname: '/search/', hash: '' }, form(query));
  const asked = searchAsked(begun, { form: form(query), mode, address: { current, wanted }, now: clock.now(), messages });
  return { ...asked, id: begun.latest, wanted };
}

describe('the search box state', () => {
  it('waits the typing delay before a search typed, none before one asked for', () => {
    const clock = handClock();
    const typed = ask(openedSearchBox(form('')), 'typing', 'q=f', '/search/', clock);
    expect(typed.wait).toBe(TYPING_DELAY_MS);
    expect(typed.box.status).toBe(messages.loading);
    expect(ask(openedSearchBox(form('')), 'asked', 'q=f', '/search/', clock).wait).toBe(0);
  });

  it('runs only the last of the letters typed within the typing delay', async () => {
    const clock = handClock();
    let box = openedSearchBox(form(''));
    let address = '/search/';
    const ran: string[] = [];
    const keystroke = async (query: string) => {
      const asked = ask(box, 'typing', query, address, clock);
      box = asked.box;
      address = asked.wanted;
      await clock.wait(asked.wait);
      if (isLatest(box, asked.id)) ran.push(query);
    };
    const typing = [keystroke('q=f'), keystroke('q=fl')];
    await clock.advance(TYPING_DELAY_MS - 1);
    const last = keystroke('q=fle');
    await clock.advance(TYPING_DELAY_MS);
    await Promise.all([...typing, last]);
    expect(ran).toEqual(['q=fle']);
  });

  it('makes one history entry for a run of typing, a new one after a pause or for a search asked for', () => {
    const clock = handClock();
    let box = openedSearchBox(form(''));
    let address = '/search/';
    const steps: (string | null)[] = [];
    const step = (mode: SearchMode, query: string, at: number) => {
      clock.now = () => at;
      const asked = ask(box, mode, query, address, clock);
      box = asked.box;
      if (asked.history) address = asked.wanted;
      steps.push(asked.history);
    };
    step('asked', 'q=twill', 0);
    step('typing', 'q=f', 100);
    step('typing', 'q=fl', 200);
    step('typing', 'q=fl', 300);
    // The same words again leave the address, and the time the run of typing last changed it, as they were.
    step('typing', 'q=fle', 200 + TYPING_RUN_MS - 1);
    step('typing', 'q=flee', 200 + TYPING_RUN_MS - 1 + TYPING_RUN_MS);
    step('asked', 'q=flee&projection=Technical', 10_000);
    step('typing', 'q=fleec&projection=Technical', 10_001);
    step('restored', 'q=twill', 10_002);
    expect(steps).toEqual(['push', 'push', 'replace', null, 'replace', 'push', 'push', 'push', null]);
  });

  it('puts a search in the address with the hash kept', () => {
    expect(searchAddress({ pathname: '/', hash: '#category=tops' }, form('q=fleece&sort=title'))).toBe(
      '/?q=fleece&sort=title#category=tops',
    );
    expect(searchAddress({ pathname: '/search/', hash: '' }, form(''))).toBe('/search/');
  });

  it('empties the list and says what to do when there is nothing to search for', () => {
    const clock = handClock();
    const shown = garmentsShown(searchFound(openedSearchBox(form('q=fleece')), found(12, { filters: { color: { Navy: 3 } } })), 10);
    const asked = ask(shown, 'typing', 'q=', '/search/?q=fleece', clock);
    expect(asked.box).toMatchObject({ shown: 0, count: 0, more: false, status: messages.prompt, note: '', counts: null });
    expect(asked.wait).toBe(0);
  });

  it('offers more garments until every one found is shown', () => {
    let box = searchFound(openedSearchBox(form('q=tee')), found(23));
    expect(box.shown).toBe(0);
    box = garmentsShown(box, 10);
    expect(box.more).toBe(true);
    box = garmentsShown(box, 10);
    expect(box.more).toBe(true);
    box = garmentsShown(box, 3);
    expect(box).toMatchObject({ shown: 23, more: false });
  });

  it('says how many garments were found, for which words and in which filters, and offers help when none', () => {
    const asked = form('q=flece&color=Navy');
    const corrected = summaryShown(
      searchFound(openedSearchBox(asked), found(2, { searched: 'fleece', corrected: true })),
      asked,
      found(2, { searched: 'fleece', corrected: true }),
      messages,
    );
    expect(corrected.status).toBe('2 garments for “fleece” in Navy');
    expect(corrected.note).toBe('No garment says “flece”; showing “fleece” instead.');
    expect(corrected.help.shown).toBe(false);
    const none = found(0, { searched: 'zzz', suggestions: ['fleece'] });
    const stuck = summaryShown(searchFound(openedSearchBox(form('q=zzz&color=Navy')), none), form('q=zzz&color=Navy'), none, messages);
    expect(stuck.status).toBe('No garments for “zzz” in Navy.');
    expect(stuck.help).toEqual({ shown: true, suggestions: ['fleece'], clearFilters: true });
    const navy = form('color=Navy');
    expect(summaryShown(searchFound(openedSearchBox(navy), found(1)), navy, found(1), messages).status).toBe('1 garment in Navy');
  });

  it('runs without the words no garment says and names them; a misspelling among the rest shows as the word searched', () => {
    const note = (query: string, more: Partial<FoundSearch>) =>
      summaryShown(searchFound(openedSearchBox(form(query)), found(3, more)), form(query), found(3, more), messages);
    const dropped = note('q=fleece+xqxq', { searched: 'fleece', corrected: true, dropped: ['xqxq'] });
    expect(dropped.note).toBe('No garment says “xqxq”; showing garments for “fleece”.');
    expect(dropped.status).toBe('3 garments for “fleece”');
    expect(dropped.help.shown).toBe(false);
    expect(note('q=xqxq+flece+zzzz', { searched: 'fleece', corrected: true, dropped: ['xqxq', 'zzzz'] }).note).toBe(
      'No garment says “xqxq” or “zzzz”; showing garments for “fleece”.',
    );
  });

  it('shows what a recent visit kept at once, and again only when the search run again differs', () => {
    const kept: KeptResult = { search: found(12), first: [garment('/garments/a/'), garment('/garments/b/')] };
    const box = resultShown(openedSearchBox(form('q=tee')), form('q=tee'), kept.search, kept.first.length, messages);
    expect(box).toMatchObject({ shown: 2, count: 12, more: true, status: '12 garments for “tee”' });
    expect(sameFound(kept, found(12), [garment('/garments/a/'), garment('/garments/b/')])).toBe(true);
    expect(sameFound(kept, found(12), [garment('/garments/b/'), garment('/garments/a/')])).toBe(false);
    expect(sameFound(kept, found(12, { corrected: true }), kept.first)).toBe(false);
    expect(sameFound(kept, found(13), kept.first)).toBe(false);
  });

  it('shows the filters with the values of the site and those asked for, ticked and opened as asked', () => {
    const totals = { category: { tops: 2, outerwear: 1 }, color: { Navy: 1 } };
    const groups = filterGroups(totals, form('category=tops&color=Olive'), messages);
    expect(groups.map((group) => [group.key, group.open, group.values])).toEqual([
      [
        'category',
        true,
        [
          { value: 'outerwear', checked: false },
          { value: 'tops', checked: true },
        ],
      ],
      [
        'color',
        true,
        [
          { value: 'Navy', checked: false },
          { value: 'Olive', checked: true },
        ],
      ],
    ]);
    expect(filterGroups(totals, form(''), messages).every((group) => !group.open)).toBe(true);
  });

  it('counts per value over every garment with no search, not at all under a search until counted', () => {
    const totals = { color: { Navy: 4 } };
    const box = filterValuesRead(openedSearchBox(form('')), totals);
    expect(shownCounts(box, form(''))).toBe(totals);
    expect(shownCounts(box, form('q=tee'))).toBeNull();
    const counted = searchFound(box, found(1, { filters: { color: { Navy: 1 } } }));
    expect(shownCounts(counted, form('q=tee'))).toEqual({ color: { Navy: 1 } });
  });

  it('makes a chip for each ticked value, saying what pressing it removes', () => {
    expect(filterChips(form('color=Navy&category=tops&color=Olive'), messages)).toEqual([
      { filter: 'category', value: 'tops', label: `Remove filter ${messages.filters.category}: tops` },
      { filter: 'color', value: 'Navy', label: `Remove filter ${messages.filters.color}: Navy` },
      { filter: 'color', value: 'Olive', label: `Remove filter ${messages.filters.color}: Olive` },
    ]);
  });

  it('drops what comes for a search once another has begun, and says why a search failed', () => {
    const first = searchBegun(openedSearchBox(form('')));
    const second = searchBegun(first);
    expect(isLatest(second, first.latest)).toBe(false);
    expect(isLatest(second, second.latest)).toBe(true);
    expect(searchFailed(second, 'HTTP 500', messages).status).toContain('(HTTP 500)');
  });
});
