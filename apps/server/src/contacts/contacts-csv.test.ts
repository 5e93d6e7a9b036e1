import { describe, expect, it } from 'vitest';
import { csvBirthday, csvGroups, looksLikeContactsCsv, parseContactsCsv } from './contacts-csv.js';

describe('CSV cells', () => {
  it('birthdays: ISO, month-first, day-first; no year kept apart; Outlook’s 0/0/00 and impossible dates are none', () => {
    expect(csvBirthday('1980-05-17')).toEqual({ date: '1980-05-17', noYear: null });
    expect(csvBirthday('5/17/1980')).toEqual({ date: '1980-05-17', noYear: null });
    expect(csvBirthday('17.05.1980')).toEqual({ date: '1980-05-17', noYear: null });
    expect(csvBirthday('--07-21')).toEqual({ date: null, noYear: '--07-21' });
    for (const none of ['', '0/0/00', '1/0/00', '2/30/1990', '--13-01', 'soon'])
      expect(csvBirthday(none), none).toEqual({ date: null, noYear: null });
  });

  it('groups: Google’s ::: lists without its own groups, Outlook’s ; lists', () => {
    expect(csvGroups('* myContacts ::: Friends ::: * starred ::: * Coworkers')).toEqual([
      'Friends',
      'Coworkers',
    ]);
    expect(csvGroups('Коллеги;Проект Альфа; ')).toEqual(['Коллеги', 'Проект Альфа']);
    expect(csvGroups('')).toEqual([]);
  });
});

describe('CSV files', () => {
  it('Google’s current export: Labels, "E-mail 1 - Label", the organisation and an address kept as vCard', () => {
    const csv = [
      'First Name,Middle Name,Last Name,Nickname,Birthday,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value,Address 1 - Label,Address 1 - Street,Address 1 - City,Address 1 - Postal Code,Address 1 - Country,Organization Name,Organization Title',
      'Ada,K.,Lovelace,Countess,1815-12-10,,* myContacts ::: Science,* Home,ada@example.org,Mobile,+44 1,Work,+44 2,Home,12 St James’s Sq,London,SW1,UK,Analytical Engines,Programmer',
    ].join('\n');
    expect(looksLikeContactsCsv(csv)).toBe(true);
    const { entries } = parseContactsCsv(csv);
    expect(entries).toEqual([
      {
        entry: 1,
        name: 'Ada',
        surname: 'Lovelace',
        emails: ['ada@example.org'],
        phone: '+44 1',
        birthday: '1815-12-10',
        notes: '',
        groups: ['Science'],
        properties: [
          ['n', {}, 'text', ['Lovelace', 'Ada', 'K.', '', '']],
          ['nickname', {}, 'text', 'Countess'],
          ['tel', { type: 'work' }, 'text', '+44 2'],
          ['org', {}, 'text', 'Analytical Engines'],
          ['title', {}, 'text', 'Programmer'],
          ['adr', { type: 'home' }, 'text', ['', '', '12 St James’s Sq', 'London', '', 'SW1', 'UK']],
        ],
        uid: null,
      },
    ]);
  });

  it('a ;-separated Outlook export with Russian headers, and a row with only a display name', () => {
    const csv = [
      '"Имя";"Отчество";"Фамилия";"Адрес эл. почты";"Мобильный телефон";"Категории";"День рождения";"Заметки"',
      '"Олег";"";"Петров";"oleg@example.ru";"+7 900";"Друзья";"01.02.1970";"Две; строки"',
      '"";"";"";"";"";"";"";""',
    ].join('\r\n');
    const { entries } = parseContactsCsv(csv);
    expect(entries[0]).toMatchObject({
      name: 'Олег',
      surname: 'Петров',
      emails: ['oleg@example.ru'],
      phone: '+7 900',
      birthday: '1970-02-01',
      notes: 'Две; строки',
      groups: ['Друзья'],
    });
    expect(entries[1]).toMatchObject({ name: '', surname: '', emails: [] });
    const named = parseContactsCsv('Name,E-mail Address\nJust A Name,\n');
    expect(named.entries[0]).toMatchObject({ name: 'Just A Name', surname: '' });
  });

  it('a text without a header we know is not a contacts CSV', () => {
    expect(looksLikeContactsCsv('hello,world\n1,2')).toBe(false);
    expect(looksLikeContactsCsv('')).toBe(false);
  });
});
