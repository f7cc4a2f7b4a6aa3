// a comment mentioning await should not matter
const t = document.title;
t + "!"
