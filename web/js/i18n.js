// The page's words in English, Russian, Ukrainian (uk.js) and Czech
// (cs.js). The English text is the key; `tests/i18n.test.js` checks that
// every text given to t() in web/js has its Russian, Ukrainian and Czech.
// The server's own messages (a refused step's reason) stay as it sends them;
// its status words are translated here, its data-status keeps them as sent.

import { CS, CS_PLURAL } from './cs.js';
import { UK, UK_PLURAL } from './uk.js';

/** @type {Record<string, string>} */
export const RU = {
  // The frame and the home page.
  'Virus Wars': 'Война вирусов',
  'Analysis board': 'Доска анализа',
  'Rules': 'Правила',
  'Settings': 'Настройки',
  'Menu': 'Меню',
  'Their steps are still landing: a moment.': 'Ходы соперника ещё появляются: секунду.',
  'A clock needs its minutes: give them, or choose no clock.': 'Часам нужны минуты: укажите их или выберите игру без часов.',
  'Not rated: the game ended before each side had played a turn.': 'Без рейтинга: партия кончилась раньше, чем каждая сторона сделала ход.',
  'Your first virus goes on {cell}, your corner: every step after it must touch your viruses.': 'Ваш первый вирус встаёт на {cell}, в ваш угол: каждый следующий шаг должен касаться ваших вирусов.',
  'Rated': 'На рейтинг',
  'Decline': 'Отклонить',
  'You declined the rematch.': 'Вы отклонили реванш.',
  'Your opponent wants a rematch.': 'Соперник предлагает реванш.',
  'Accept the rematch': 'Принять реванш',
  'clock': 'часы',
  'none': 'без часов',
  'custom': 'свои',
  'Blitz': 'блиц',
  'Rapid': 'рапид',
  'Classical': 'классика',
  'Send this link to the friend you play:': 'Отправьте эту ссылку другу, с которым играете:',
  'Share…': 'Поделиться…',
  'Play Virus Wars with me': 'Сыграй со мной в «Войну вирусов»',
  'Play the computer': 'Игра с компьютером',
  'level {n}': 'уровень {n}',
  'you are X (first)': 'вы за X (ходите первым)',
  'you are O': 'вы за O',
  'random side': 'случайная сторона',
  'let others watch': 'пусть другие смотрят',
  'Play': 'Играть',
  'Play a friend': 'Игра с другом',
  'list it for anyone': 'показать всем в списке',
  'Create a game': 'Создать игру',
  'invite code, then Enter': 'код приглашения, затем «Ввод»',
  'in fog of war (each side sees only near its own viruses)': 'в тумане войны (каждый видит только рядом со своими вирусами)',
  'Play on this device': 'Игра на одном устройстве',
  'turn the board for the side to move': 'поворачивать доску к тому, кто ходит',
  'Start': 'Начать',
  'Quick play': 'Быстрая игра',
  'Find an opponent': 'Найти соперника',
  'Open games': 'Открытые игры',
  'Games to watch': 'Идущие игры',
  'No game is waiting: create one and list it.': 'Никто не ждёт: создайте игру и покажите её в списке.',
  'No listed game is being played now.': 'Сейчас не идёт ни одной открытой игры.',
  'Join as {side}': 'Войти за {side}',
  'Watch': 'Смотреть',
  'timed': 'с часами',
  'step {n}': 'шаг {n}',
  'The list could not be read: {why}': 'Список не загрузился: {why}',
  'variant': 'вариант',
  'its size': 'обычный размер',
  'board size': 'размер доски',
  'its steps': 'обычное число шагов',
  'steps per turn': 'шагов за ход',
  'more settings': 'ещё настройки',
  '{n} steps a turn': '{n} шаг. за ход',
  'more options, e.g. trenches=10, end=pass': 'ещё опции: ключ=значение через запятую',
  'an option is written key=value, not "{part}"': 'опция пишется как ключ=значение, а не «{part}»',
  'minutes': 'минут',
  '+ seconds': '+ секунд',
  'level': 'уровень',
  'your side': 'ваша сторона',
  'A game for two from squared paper: spread your viruses a few cells a turn, kill the other side\'s, and leave it no step.':
    'Игра для двоих с тетрадного листа: распространяйте свои вирусы на несколько клеток за ход, убивайте чужие и не оставьте сопернику хода.',
  'Classic': 'Классика',
  'Classic with passes': 'Классика с пасом',
  'Paper Tactics': 'Paper Tactics',
  'Small board': 'Малая доска',
  'Corners 11×11': 'Углы 11×11',
  'igGameCenter': 'igGameCenter',
  'Edge entry': 'Вход с края',
  'The school-paper game: 10×10, three steps a turn, each side enters at its corner; who cannot step loses.':
    'Школьная игра на бумаге: 10×10, три шага за ход, каждый входит в своём углу; кто не может сходить, проиграл.',
  'As the classic, but a side may pass: a side with no live virus loses, two passes draw.':
    'Как классика, но можно пасовать: без живых вирусов — поражение, два паса подряд — ничья.',
  'As on paper-tactics.com: both sides start with a virus in their corner.':
    'Как на paper-tactics.com: у обеих сторон с начала есть вирус в своём углу.',
  '8×8 with both sides in their corners: a quick game.': '8×8, обе стороны в своих углах: быстрая игра.',
  'As the gcr engine plays it: 11×11, the first turn is one step.': 'Как играет движок gcr: 11×11, первый ход — один шаг.',
  'As on igGameCenter: 11×11, enter anywhere on your edge, five steps a turn.':
    'Как на igGameCenter: 11×11, вход в любой клетке своего края, пять шагов за ход.',
  'From the FEUP report: enter anywhere on your side of the board, three steps a turn.':
    'Из отчёта FEUP: вход в любой клетке своей стороны доски, три шага за ход.',
  '{n} day a turn': '{n} дн. на ход',
  'you play X': 'вы за X',
  'you play O': 'вы за O',
  'a random side': 'случайная сторона',
  'no clock': 'без часов',
  'Cancel': 'Отмена',
  // The game page.
  'Resign': 'Сдаться',
  'Really resign?': 'Точно сдаться?',
  'Pass': 'Пас',
  'Abort the game': 'Отменить игру',
  'free seat': 'место свободно',
  'human': 'человек',
  'computer, level {n}': 'компьютер, уровень {n}',
  'bot {name}': 'бот {name}',
  '{d}d': '{d} д',
  'the server cannot be reached: check the connection': 'сервер недоступен: проверьте связь',
  'This link could not be checked: {why} Reload the page to try again.': 'Не удалось проверить ссылку: {why} Обновите страницу, чтобы попробовать снова.',
  'The seat could not be taken: {why} Reload the page to try again.': 'Не удалось занять место: {why} Обновите страницу, чтобы попробовать снова.',
  'Send this invite link: {link} (code {id}).': 'Отправьте это приглашение: {link} (код {id}).',
  "This link's seat token does not hold a seat in this game ({why}).": 'Ключ места в этой ссылке не подходит к этой игре ({why}).',
  'The seat could not be taken: {why}': 'Не удалось занять место: {why}',
  'This game cannot be shown: {why}': 'Эту игру не показать: {why}',
  'The seat kept in this browser is not in this game: you are watching.': 'Место, сохранённое в этом браузере, не из этой игры: вы зритель.',
  'Offer a draw': 'Предложить ничью',
  'Accept the draw': 'Принять ничью',
  'Rematch': 'Реванш',
  'Your turn': 'Ваш ход',
  'On this device': 'На этом устройстве',
  'Tap {cell} again to play it.': 'Нажмите {cell} ещё раз, чтобы сходить.',
  'Load a record or a position': 'Загрузить запись или позицию',
  'A variation from step {k}:': 'Вариант от шага {k}:',
  'X {x} %, O {o} %': 'X {x} %, O {o} %',
  'The variants': 'Варианты',
  'You can\'t reach {cell}: it touches none of your live viruses, nor a zombie chain from them.':
    'До {cell} не дотянуться: клетка не касается ни одного вашего живого вируса и цепочки зомби от них.',
  'Your first step must be on {entry}.': 'Первый шаг — только на {entry}.',
  'You have no live virus left to step from.': 'У вас не осталось живых вирусов, от которых можно сходить.',
  '{cell} is already yours.': '{cell} уже ваша.',
  '{cell} holds a zombie: zombies are never taken again.': 'В {cell} зомби: зомби больше не берут.',
  '{cell} is an obstacle.': '{cell} — препятствие.',
  '{cell} is off the board.': '{cell} за пределами доски.',
  'Your turn ended before {cell}.': 'Ваш ход закончился раньше, чем {cell}.',
  'Passing is not allowed in this variant.': 'В этом варианте пасовать нельзя.',
  'You can pass only before the first step of your turn.': 'Пасовать можно только до первого шага хода.',
  'The game is over.': 'Игра окончена.',
  'It is not your turn.': 'Сейчас не ваш ход.',
  'The game moved on meanwhile: look at the board again.': 'Игра тем временем продолжилась: посмотрите на доску ещё раз.',
  'Looking for an opponent…': 'Ищем соперника…',
  'The next player who taps the same tile plays you.': 'С вами сыграет следующий, кто нажмёт ту же плитку.',
  'Play the computer meanwhile': 'Пока сыграть с компьютером',
  'Your opponent is here: the game is on.': 'Соперник на месте: игра началась.',
  'You': 'Вы',
  'Your opponent': 'Соперник',
  'Still provisional': 'Пока предварительно',
  'Download every game': 'Скачать все партии',
  'records (.vwr)': 'записи (.vwr)',
  'JSON lines': 'строки JSON',
  'Name': 'Имя',
  'Password': 'Пароль',
  'Log in': 'Войти',
  'Sign up': 'Зарегистрироваться',
  'A name of 2 to 20 letters A–Z, digits, _ and -; a password of at least 8 characters that is not easy to guess. Playing without an account stays as it is.': 'Имя — от 2 до 20 латинских букв, цифр, _ и -; пароль — не короче 8 знаков и не из тех, что легко угадать. Играть без учётной записи можно, как и прежде.',
  'My games': 'Мои партии',
  'rated (with players who are logged in)': 'на рейтинг (с вошедшими игроками)',
  'Your move': 'Ваш ход',
  'Their move': 'Ход соперника',
  'Top players': 'Лучшие игроки',
  'Category': 'Категория',
  'Ratings still provisional (marked ?) are listed apart, below.': 'Предварительные рейтинги (со знаком ?) — отдельно, ниже.',
  'Nobody yet.': 'Пока никого.',
  'rated (both logged in, with a clock)': 'на рейтинг (оба вошли, с часами)',
  'Your account': 'Ваша учётная запись',
  'Log out': 'Выйти',
  'Log out everywhere': 'Выйти на всех устройствах',
  'quick play never pairs me with a bot': 'в быстрой игре не подбирать мне ботов',
  'Password now': 'Пароль сейчас',
  'New password': 'Новый пароль',
  'Change the password': 'Сменить пароль',
  'Your other devices are logged out.': 'На других устройствах вы выйдете из учётной записи.',
  'Delete the account': 'Удалить учётную запись',
  'Your games stay, under a name like deleted-7f3a; your name becomes free. This cannot be undone.': 'Ваши партии останутся под именем вроде deleted-7f3a; ваше имя освободится. Отменить это нельзя.',
  'Delete my account': 'Удалить мою учётную запись',
  'The password is changed.': 'Пароль сменён.',
  'vs': 'против',
  'rated': 'на рейтинг',
  'Open': 'Открыть',
  'Rating over {n} rated games, from {a} to {b}': 'Рейтинг за {n} партий: от {a} до {b}',
  'Loading…': 'Загрузка…',
  'Streak: {n} {result}': 'Серия: {n}, {result}',
  'This account was deleted.': 'Эта учётная запись удалена.',
  'Playing since {date}': 'Играет с {date}',
  'Ratings': 'Рейтинги',
  'Chart': 'График',
  'No rated game yet.': 'Партий на рейтинг пока нет.',
  'Games': 'Партии',
  '{played} played: {won} won, {lost} lost, {drawn} drawn.': 'Сыграно {played}: выиграно {won}, проиграно {lost}, вничью {drawn}.',
  'In progress': 'Идут сейчас',
  'Archive': 'Архив',
  'all variants': 'все варианты',
  'result': 'результат',
  'all results': 'все результаты',
  'rated and casual': 'на рейтинг и без',
  'casual': 'без рейтинга',
  'opponent': 'соперник',
  'Show': 'Показать',
  'More': 'Ещё',
  'No game.': 'Партий нет.',
  'None.': 'Нет.',
  'won': 'выиграна',
  'lost': 'проиграна',
  'drawn': 'ничья',
  'playing': 'идёт',
  'bullet': 'пуля',
  'blitz': 'блиц',
  'rapid': 'рапид',
  'classical': 'классика',
  'correspondence': 'по переписке',
  'Other variants': 'Другие варианты',
  'Computer, level {n}': 'Компьютер, уровень {n}',
  'a person': 'человек',
  'a sound when it is your turn': 'звук, когда ваш ход',
  'Your name (shown to your opponent; none: a person)': 'Ваше имя (его видит соперник; без имени — «человек»)',
  'At most 20 characters.': 'Не больше 20 знаков.',
  'Use letters, digits, spaces and _ - . \' only.': 'Только буквы, цифры, пробелы и _ - . \'',
  'No two spaces in a row.': 'Без двух пробелов подряд.',
  'Make your first step within {n} s, or the game is called off.': 'Сделайте первый шаг в течение {n} с, иначе игра будет отменена.',
  '{side} has {n} s to make a first step, or the game is called off.': 'У {side} {n} с на первый шаг, иначе игра будет отменена.',
  'You won': 'Вы выиграли',
  'You lost': 'Вы проиграли',
  'Drawn': 'Ничья',
  'The game was called off': 'Игра отменена',
  'New game': 'Новая игра',
  'Analyse': 'Анализ',
  'Copy invite link': 'Скопировать приглашение',
  'Download the record': 'Скачать запись партии',
  'it is not your turn': 'сейчас не ваш ход',
  'you are watching this game': 'вы смотрите эту игру',
  'Both seats on this device.': 'Обе стороны на этом устройстве.',
  'You play {side}.': 'Вы играете за {side}.',
  'Your turn · {steps}': 'Ваш ход · {steps}',
  'Their turn': 'Ход соперника',
  'Waiting for your opponent': 'Ждём соперника',
  '{status} · {steps}': '{status} · {steps}',
  'confirm each step (a first tap chooses the cell, a second plays it)': 'подтверждать каждый шаг (первое касание выбирает клетку, второе ходит)',
  'You have no legal step': 'У вас нет возможного шага',
  'Your opponent has no legal step': 'У соперника нет возможного шага',
  'You have no live virus left': 'У вас не осталось живых вирусов',
  'Your opponent has no live virus left': 'У соперника не осталось живых вирусов',
  'You resigned': 'Вы сдались',
  'Your opponent resigned': 'Соперник сдался',
  'You ran out of time': 'У вас кончилось время',
  'Your opponent ran out of time': 'У соперника кончилось время',
  'X: {x}, O: {o}. You are watching.': 'X: {x}, O: {o}. Вы зритель.',
  'Invite link {link} (code {id}) copied.': 'Приглашение {link} (код {id}) скопировано.',
  'Waiting for the second player: send them the invite link.': 'Ждём второго игрока: отправьте ему приглашение.',
  'Turn {k} of {n}': 'Ход {k} из {n}',
  'Back to the game': 'Вернуться к игре',
  'Moves': 'Ходы',
  'not connected: trying again': 'нет связи: пробуем снова',
  'connection lost: reconnecting…': 'связь потеряна: переподключение…',
  'board': 'доска',
  // Cells, as a screen reader says them.
  'empty': 'пусто',
  'X virus': 'вирус X',
  'O virus': 'вирус O',
  'zombie of X': 'зомби X',
  'zombie of O': 'зомби O',
  'trench': 'траншея',
  'not seen (fog)': 'не видно (туман)',
  'Fog of war: show': 'Туман войны: показать',
  'the whole board': 'всю доску',
  'what X saw': 'что видел X',
  'what O saw': 'что видел O',
  'what both saw': 'что видели оба',
  'remembered: out of sight now': 'запомнен: сейчас не виден',
  'fog of war (each side sees only near its own viruses)': 'туман войны (каждый видит только рядом со своими вирусами)',
  'fog of war': 'туман войны',
  'Fog of war: {n} cells are hidden from you; faded pieces are where you last saw them.': 'Туман войны: от вас скрыто клеток — {n}; бледные фигуры — там, где вы их видели в последний раз.',
  'Fog of war: you see only what both players see.': 'Туман войны: вы видите только то, что видят оба игрока.',
  'In fog of war the turns can be looked back at once the game is over.': 'В тумане войны к прошлым ходам можно вернуться, когда партия окончена.',
  'obstacle': 'препятствие',
  'you may step here': 'сюда можно сходить',
  // Status words (the API's) and endings.
  'X to move': 'ходит X',
  'O to move': 'ходит O',
  'X wins': 'X победил',
  'O wins': 'O победил',
  'draw': 'ничья',
  'aborted': 'игра отменена',
  '{side} has no legal step': 'у {side} нет допустимого шага',
  '{side} has no live virus left': 'у {side} не осталось живых вирусов',
  '{side} resigned': '{side} сдался',
  '{side} ran out of time': 'у {side} кончилось время',
  'both passed': 'оба спасовали',
  'draw agreed': 'ничья по согласию',
  // The analysis board.
  'Paste a game record (.vwr) or a position string': 'Вставьте запись партии (.vwr) или строку позиции',
  'a record or a position string': 'запись партии или строка позиции',
  'Load': 'Загрузить',
  'to the start': 'в начало',
  'one step back': 'шаг назад',
  'one step on': 'шаг вперёд',
  'to the end': 'в конец',
  'Ask the engine': 'Спросить движок',
  'thinking…': 'думает…',
  '{status} — step {k} of {n}': '{status} — шаг {k} из {n}',
  'The record ends: {how}.': 'Запись заканчивается так: {how}.',
  'Best turn: {turn}{p}. Line: {line}': 'Лучший ход: {turn}{p}. Вариант: {line}',
  ', {p} % to win for {side}': ', {side} выигрывает с вероятностью {p} %',
  // The engine's review of a game.
  'The engine\'s review': 'Разбор партии движком',
  'Every turn judged: level 9\'s search, 0.3 s a position.': 'Оценён каждый ход: поиск 9-го уровня, 0,3 с на позицию.',
  'The engine is judging the game: {k} of {n} turns…': 'Движок разбирает партию: {k} из {n} ходов…',
  '{side}: accuracy {a} % · inaccuracies {i}, mistakes {m}, blunders {b}': '{side}: точность {a} % · неточности {i}, ошибки {m}, грубые ошибки {b}',
  'X\'s chance to win, turn by turn': 'Шансы X на победу, ход за ходом',
  'Turn {n}, {side}: X {before} % → {after} %': 'Ход {n}, {side}: X {before} % → {after} %',
  '{turn}. The engine would have played the same.': '{turn}. Движок сыграл бы так же.',
  '{turn}. Better: {best} (numbered on the board).': '{turn}. Лучше: {best} (номера на доске).',
  'inaccuracy': 'неточность',
  'mistake': 'ошибка',
  'blunder': 'грубая ошибка',
  // Settings.
  'Theme': 'Тема',
  'light': 'светлая',
  'dark': 'тёмная',
  'e-ink (black and white, no animation)': 'электронная бумага (чёрно-белая, без анимации)',
  'coordinates on the board': 'координаты на доске',
  'Language': 'Язык',
  'Back': 'Назад',
  'Install': 'Установить',
  // The rules page.
  'The rules': 'Правила',
  'rules-intro': 'Двое по очереди растят колонии вирусов на клетчатой доске. X ходит первым. Ход — это несколько шагов подряд (обычно три). Шаг — поставить свой вирус на пустую доступную клетку или убить доступный вирус соперника: он становится вашим зомби и остаётся им навсегда. Кто не может сделать шаг, проигрывает.',
  'rules-access': 'Клетка доступна, если она касается (по стороне или по диагонали) вашей живой группы: связной группы ваших вирусов и зомби, в которой есть хотя бы один живой ваш вирус. Доска ниже приходит с сервера: зелёным отмечены клетки, куда можно сходить.',
  'A turn of steps': 'Ход из нескольких шагов',
  'rules-turn': 'Первый ход X на доске 6×6: три шага, a1, b2, c3. Каждый шаг открывает новые клетки для следующего. Потом ходит O, из своего угла.',
  'A group cut off from its live viruses': 'Группа, отрезанная от живых вирусов',
  'rules-cut': 'O ставит вирус на d3 и убивает c3. Зомби X на d4 больше не касается ни одного живого вируса X: его группа мертва, и клетки вокруг него (c4, c5, d5, e3) для X недоступны.',
  'A zombie chain that keeps a group alive': 'Цепочка зомби держит группу живой',
  'rules-chain': 'Зомби X на c3 и d4 связаны с живыми вирусами X на b2 и c2, поэтому X дотягивается через них далеко: убивает e5, затем f4 и f5.',
  'before': 'до',
  'after': 'после',
  'after step {k}': 'после шага {k}',
  'The examples could not be loaded: {why}': 'Примеры не загрузились: {why}',
  // Exercises from a reviewed game.
  'Find the better turn': 'Найдите ход лучше',
  '{found} of {n} found': 'найдено {found} из {n}',
  '✓ Found: {best} is the engine\'s turn.': '✓ Найдено: {best} — ход движка.',
  '✗ Not the engine\'s turn: it was {best} (numbered on the board).': '✗ Это не ход движка: он был {best} (пронумерован на доске).',
  'That is the turn played: step another one.': 'Это сыгранный ход: сделайте другой.',
  'End the exercise': 'Закончить упражнение',
  '{turn}. Step a better turn for {side} on the board.': '{turn}. Сделайте на доске ход лучше за {side}.',
  'All of {category}': 'Весь список: {category}',
  'All categories': 'Все категории',
  'Nobody is rated yet: play a rated game or a puzzle while logged in.': 'Рейтинга пока нет ни у кого: сыграйте рейтинговую партию или задачу, войдя в аккаунт.',
  'QR code': 'QR-код',
  'The invite link as a QR code: scan it with the other phone\'s camera.': 'Ссылка-приглашение в виде QR-кода: наведите на неё камеру другого телефона.',
  'Novice': 'Новичок',
  'Beginner': 'Начинающий',
  'Careful': 'Осторожный',
  'Planner': 'Плановик',
  'Schemer': 'Комбинатор',
  'Tactician': 'Тактик',
  'Strategist': 'Стратег',
  'Master': 'Мастер',
  'Grandmaster': 'Гроссмейстер',
  'Plays a random legal step: for learning the rules.': 'Делает случайный допустимый шаг: чтобы выучить правила.',
  'Takes what it sees; misses threats.': 'Берёт то, что видит; не замечает угроз.',
  'Looks a little ahead; punishes loose groups.': 'Смотрит немного вперёд; наказывает за слабые группы.',
  'Plans its turn; a steady opponent for a new player.': 'Планирует свой ход; ровный соперник для новичка.',
  'Builds chains and cuts them; for players who know the game.': 'Строит цепи и рвёт их; для тех, кто знает игру.',
  'Sees most kills a turn ahead; hard for a club player.': 'Видит большинство убийств на ход вперёд; трудный соперник для клубного игрока.',
  'Thinks half a second on two threads.': 'Думает полсекунды в два потока.',
  'Full strength: two seconds on two threads.': 'Полная сила: две секунды в два потока.',
  'Full strength guided by the learned net: the strongest there is.': 'Полная сила с обученной сетью: сильнее не бывает.',
  'Beat level {below} {score} on the ladder; rated {elo} above level 1.': 'Обыграл уровень {below} со счётом {score} в лестнице; рейтинг на {elo} выше уровня 1.',
  'The ladder starts here (rated 0).': 'С него начинается лестница (рейтинг 0).',
  '{turn}. It keeps the win.': '{turn}. Победа сохранена.',
  // The puzzle trainer.
  'Puzzles': 'Задачи',
  'Start the turn again': 'Начать ход заново',
  'Next puzzle': 'Следующая задача',
  'any theme': 'любая тема',
  'Variant': 'Вариант',
  'any variant': 'любой вариант',
  'cut-off group': 'отрезанная группа',
  'bunker': 'бункер',
  'fortress': 'крепость',
  'last live virus': 'последний живой вирус',
  'race for an entry cell': 'гонка за входную клетку',
  '{side} to play: find the winning turn ({steps}), then {n} more after the replies.': 'Ход {side}: найдите выигрывающий ход ({steps}), а после ответов ещё {n}.',
  '{side} to play: find the winning turn ({steps}).': 'Ход {side}: найдите выигрывающий ход ({steps}).',
  'The turn takes at least half of the cells the other side could step on.': 'Ход забирает не меньше половины клеток, на которые мог шагнуть противник.',
  'The turn kills at least two viruses: a wall of your zombies.': 'Ход убивает не меньше двух вирусов: стена из ваших зомби.',
  'Afterwards the other side can reach none of your viruses.': 'После хода противник не может дотянуться ни до одного вашего вируса.',
  'The turn leaves the other side one virus.': 'После хода у противника остаётся один вирус.',
  'A side has not entered the board yet.': 'Одна из сторон ещё не вошла на доску.',
  'View the solution': 'Показать решение',
  'The winning turn, numbered on the board: {turn}.': 'Выигрывающий ход, пронумерованный на доске: {turn}.',
  '✓ Solved, after a miss (the rating moves on the first try only).': '✓ Решено после промаха (рейтинг меняется только при первой попытке).',
  'The winning line: {line}': 'Выигрывающая линия: {line}',
  'The game goes on, but {side} wins whatever the other side plays (proved by the solver).': 'Игра продолжается, но {side} выигрывает при любой игре противника (доказано решателем).',
  'This visit: {solved} of {tried} solved at the first try · streak {streak}': 'За этот визит с первой попытки решено {solved} из {tried} · серия {streak}',
  'Puzzle {id} · {variant} · rated {rating} · solved {solved} of {plays}': 'Задача {id} · {variant} · рейтинг {rating} · решили {solved} из {plays}',
  'Your puzzle rating: {rating}': 'Ваш рейтинг в задачах: {rating}',
  '(tried before: it will not move)': '(вы её уже пробовали: рейтинг не изменится)',
  'Log in to have a puzzle rating.': 'Войдите, чтобы получить рейтинг в задачах.',
  'Your puzzle rating: {before} → {after} ({change})': 'Ваш рейтинг в задачах: {before} → {after} ({change})',
  '✗ Not the winning turn (yours is marked). Try again, or view the solution.': '✗ Это не выигрывающий ход (ваш отмечен). Попробуйте ещё раз или посмотрите решение.',
  '✓ Solved!': '✓ Решено!',
  '✓ Right. The reply is played: go on.': '✓ Верно. Ответ сыгран: продолжайте.',
  'rules-variants': 'Игру начинают в одном из вариантов; размер доски, число шагов за ход и другие опции (траншеи, препятствия, правило паса) выбирают в настройках игры на главной странице.',
};

/** The languages the page speaks besides English, with their words. */
export const LANGUAGES = /** @type {Record<string, Record<string, string>>} */ ({ ru: RU, uk: UK, cs: CS });

/** The page's language: `ru`, `uk`, `cs` or `en`. */
export function lang() {
  const l = document.documentElement.lang;
  return Object.hasOwn(LANGUAGES, l) ? l : 'en';
}

/**
 * The text in the page's language, with `{name}` filled from `vars`.
 * Keys that are not English text (`rules-intro`) have their English in EN.
 * @param {string} text
 * @param {Record<string, string | number>} [vars]
 */
export function t(text, vars) {
  const l = lang();
  const words = (l !== 'en' && LANGUAGES[l][text]) || EN[text] || text;
  return words.replace(/\{(\w+)\}/g, (all, name) => (vars && name in vars ? String(vars[name]) : all));
}

/** English for the keys that are names rather than text. */
/** @type {Record<string, string>} */
export const EN = {
  'rules-intro': 'Two players take turns growing colonies of viruses on a grid. X moves first. A turn is several steps in a row (three in most variants). A step puts your virus on an empty accessible cell, or kills an accessible enemy virus: it becomes your zombie, for good. Whoever cannot step loses.',
  'rules-access': 'A cell is accessible when it touches (side or corner) one of your live groups: a connected group of your viruses and zombies with at least one live virus of yours. The boards below come from the server: the marked cells are where the side to move may step.',
  'rules-turn': "X's first turn on a 6×6 board: three steps, a1, b2, c3. Each step opens new cells for the next. Then O moves, from its own corner.",
  'rules-cut': "O steps to d3 and kills c3. X's zombie on d4 now touches no live X virus: its group is dead, and the cells around it (c4, c5, d5, e3) are out of X's reach.",
  'rules-chain': "X's zombies on c3 and d4 are joined to X's live viruses on b2 and c2, so X reaches far through them: it kills e5, then f4 and f5.",
  'rules-variants': 'A game is played in one of these variants; the board size, the steps a turn and other options (trenches, obstacles, the pass rule) are chosen in a game\'s settings on the home page.',
};

/**
 * Who plays a side (the API's `players.x`, `players.o`), in the page's language.
 * @param {import('./api.js').PlayerInfo} who
 */
export function playerName(who) {
  if (who.kind === 'computer') return t('computer, level {n}', { n: who.level ?? '?' });
  if (who.kind === 'bot') return t('bot {name}', { name: who.name ?? '' });
  return who.name ?? t('human');
}

/**
 * Whose move it is, or how the game ended, in the page's language: from
 * the API's fields `to_move` and `ending` (never from its English words).
 * @param {{to_move: string | null, ending: import('./api.js').EndingState | null}} s
 */
export function statusText(s) {
  if (s.to_move) return t(`${s.to_move.toUpperCase()} to move`);
  if (!s.ending || s.ending.reason === 'aborted') return t('aborted');
  return s.ending.winner ? t(`${s.ending.winner.toUpperCase()} wins`) : t('draw');
}

/** The words of each ending code; {side} is the side the ending is about (the loser). */
export const ENDING_WORDS = {
  no_legal_step: '{side} has no legal step',
  annihilation: '{side} has no live virus left',
  resignation: '{side} resigned',
  time: '{side} ran out of time',
  two_passes: 'both passed',
  agreement: 'draw agreed',
};

/** The words of an ending said to a player: [when it is about them, when about their opponent]. */
export const ENDING_YOURS = {
  no_legal_step: ['You have no legal step', 'Your opponent has no legal step'],
  annihilation: ['You have no live virus left', 'Your opponent has no live virus left'],
  resignation: ['You resigned', 'Your opponent resigned'],
  time: ['You ran out of time', 'Your opponent ran out of time'],
};

/** Every ending's words (each must have its translation). */
export const ENDINGS = [...Object.values(ENDING_WORDS), ...Object.values(ENDING_YOURS).flat()];

/**
 * Why a game ended, said to the player of `side`: "You resigned", "Your
 * opponent ran out of time", "both passed".
 * @param {import('./api.js').EndingState} ending
 * @param {string} side
 */
export function endingTextFor(ending, side) {
  const yours = /** @type {Record<string, string[]>} */ (ENDING_YOURS)[ending.reason];
  if (!yours || !ending.winner) return endingText(ending);
  return t(ending.winner === side ? yours[1] : yours[0]);
}

/**
 * Words that change with a number, by the page's language's plural rules:
 * English one and other, Russian and Ukrainian one, few and many, Czech
 * one, few (2–4) and other.
 * @type {Record<string, {en: string[], ru: string[], uk: string[], cs: string[]}>}
 */
export const PLURAL = {
  '{n} steps': { en: ['{n} step', '{n} steps'], ru: ['{n} шаг', '{n} шага', '{n} шагов'], uk: UK_PLURAL['{n} steps'], cs: CS_PLURAL['{n} steps'] },
  '{n} games': { en: ['{n} game', '{n} games'], ru: ['{n} партия', '{n} партии', '{n} партий'], uk: UK_PLURAL['{n} games'], cs: CS_PLURAL['{n} games'] },
};

/**
 * `key`'s words for the number `n`, in the page's language.
 * @param {keyof typeof PLURAL} key
 * @param {number} n
 */
export function tn(key, n) {
  const forms = PLURAL[key];
  const l = lang();
  const rule = new Intl.PluralRules(l).select(n);
  const form = l === 'ru' || l === 'uk' || l === 'cs'
    ? forms[l][rule === 'one' ? 0 : rule === 'few' ? 1 : 2]
    : forms.en[rule === 'one' ? 0 : 1];
  return form.replace('{n}', String(n));
}

/**
 * Why a game ended (the API's `ending`), in the page's language; '' for
 * an aborted game (its status says so) or a code this page does not know.
 * @param {import('./api.js').EndingState} ending
 */
export function endingText(ending) {
  const words = /** @type {Record<string, string>} */ (ENDING_WORDS)[ending.reason];
  if (!words) return '';
  const loser = ending.winner === 'x' ? 'O' : ending.winner === 'o' ? 'X' : '';
  return t(words, { side: loser });
}

/** The words of a refused step's reason (the API's `detail.reason`). */
export const REFUSED_STEP = {
  not_accessible: 'You can\'t reach {cell}: it touches none of your live viruses, nor a zombie chain from them.',
  not_entry: 'Your first step must be on {entry}.',
  no_live_group: 'You have no live virus left to step from.',
  own_virus: '{cell} is already yours.',
  zombie: '{cell} holds a zombie: zombies are never taken again.',
  obstacle: '{cell} is an obstacle.',
  off_board: '{cell} is off the board.',
  turn_over: 'Your turn ended before {cell}.',
  pass_not_allowed: 'Passing is not allowed in this variant.',
  pass_mid_turn: 'You can pass only before the first step of your turn.',
  game_over: 'The game is over.',
};

/** The words of a refusal's code, where they need no more than the code. */
export const REFUSED = {
  not_your_turn: 'It is not your turn.',
  stale_seq: 'The game moved on meanwhile: look at the board again.',
};

/**
 * A refusal of the server (`{code, message, detail}`) in the page's
 * language: from its code and detail, or its message where the page has no
 * words of its own for it.
 * @param {{code: string, message: string, detail?: {cell: string, reason: string, entry: string | null} | null}} error
 */
export function refusalText(error) {
  const d = error.detail;
  const step = d ? /** @type {Record<string, string>} */ (REFUSED_STEP)[d.reason] : undefined;
  if (d && step) return t(step, { cell: d.cell, entry: d.entry || '' });
  const words = /** @type {Record<string, string>} */ (REFUSED)[error.code];
  return words ? t(words) : error.message;
}

/**
 * A state's status and, once over, why: "O wins (X resigned)".
 * @param {{to_move: string | null, ending: import('./api.js').EndingState | null}} s
 */
export function statusWithEnding(s) {
  const why = s.ending ? endingText(s.ending) : '';
  return statusText(s) + (why ? ` (${why})` : '');
}
