// The most used passwords of public breach corpora that are long enough to pass the length rule.
export const commonPasswords = new Set([
  '1234567890', '12345678910', '0123456789', '1q2w3e4r5t', '1qaz2wsx3edc', 'qwertyuiop', 'qwertyuiop1', 'qwerty1234',
  'qwerty12345', 'password12', 'password123', 'password1234', 'password!1', 'passw0rd123', 'p@ssw0rd123', 'p@ssword123',
  'iloveyou12', 'iloveyou123', 'princess12', 'sunshine12', 'football12', 'baseball12', 'welcome123', 'welcome1234',
  'letmein123', 'admin12345', 'administrator', 'administrator1', 'changeme123', 'changeme!1', 'trustno1234',
  'abcdefghij', 'abcd123456', 'abc1234567', 'aaaaaaaaaa', '1111111111', '0000000000', '9876543210', 'zxcvbnm123',
  'asdfghjkl1', 'asdfghjkl123', 'q1w2e3r4t5', 'q1w2e3r4t5y6', 'monkey1234', 'dragon1234', 'master1234', 'superman12',
  'batman1234', 'starwars12', 'whatever12', 'football123', 'baseball123', 'michael123', 'jennifer12', 'jordan2323',
  'summer2024', 'summer2025', 'summer2026', 'winter2024', 'winter2025', 'winter2026', 'spring2025', 'spring2026',
  'autumn2025', 'autumn2026', 'company123', 'welcome2025', 'welcome2026', 'password2025', 'password2026',
  'cartograph', 'cartograph1', 'cartograph123', 'secret1234', 'secret12345', 'letmein1234', 'computer12',
  'internet12', 'qazwsxedc1', 'qazwsxedcrfv', '1q2w3e4r5t6y', 'zaq12wsxcde3', 'correcthorse', 'correcthorsebatterystaple',
]);
